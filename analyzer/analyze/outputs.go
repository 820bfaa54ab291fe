package analyze

import (
	"os"

	"github.com/doubleagent/doubleagent/analyzer/engine/outputs"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The output stage's names, kept here so callers of the engine name them
// as before (the stage is analyzer/engine/outputs).

// Output formats (--format, comma-separated).
const (
	FormatJSONL      = outputs.FormatJSONL
	FormatCSV        = outputs.FormatCSV
	FormatTimesketch = outputs.FormatTimesketch
	FormatECS        = outputs.FormatECS
	FormatParquet    = outputs.FormatParquet
	FormatBodyfile   = outputs.FormatBodyfile
)

// Output file names in the output folder.
const (
	TimelineJSONL      = outputs.TimelineJSONL
	TimelineCSV        = outputs.TimelineCSV
	TimelineTimesketch = outputs.TimelineTimesketch
	TimelineECS        = outputs.TimelineECS
	ECSTemplateOut     = outputs.ECSTemplateOut
	TimesketchDir      = outputs.TimesketchDir
	TimelineParquet    = outputs.TimelineParquet
	BodyfileName       = outputs.BodyfileName
	SessionsJSONL      = outputs.SessionsJSONL
	InventoryJSON      = outputs.InventoryJSON
	ProblemsJSONL      = outputs.ProblemsJSONL
)

// Format details (see the outputs package).
const (
	CSVCellMax        = outputs.CSVCellMax
	ECSVersion        = outputs.ECSVersion
	ECSFlattenedDepth = outputs.ECSFlattenedDepth
	ParquetLayout     = outputs.ParquetLayout
	UndatedDay        = outputs.UndatedDay
	UndatedDatetime   = outputs.UndatedDatetime
)

// Formats lists the formats in the order their files are written.
var Formats = outputs.Formats

// ECSTemplate is the index template written beside timeline.ecs.jsonl.
var ECSTemplate = outputs.ECSTemplate

// The row shapes of the Parquet and ECS timelines.
type (
	ParquetRow     = outputs.ParquetRow
	ECSDoc         = outputs.ECSDoc
	ECSEvent       = outputs.ECSEvent
	ECSProcess     = outputs.ECSProcess
	ECSGenAI       = outputs.ECSGenAI
	ECSTool        = outputs.ECSTool
	ECSCall        = outputs.ECSCall
	ECSUsage       = outputs.ECSUsage
	ECSDoubleAgent = outputs.ECSDoubleAgent
)

// RowConsumer sees the rows of the timeline during the output pass (see
// outputs.RowConsumer).
type RowConsumer = outputs.RowConsumer

// ParseFormats splits a --format value ("jsonl,csv,parquet") into known
// formats, each once, in Formats order.
func ParseFormats(v string) ([]string, error) { return outputs.ParseFormats(v) }

// ECSDocOf is the ECS document of a row.
func ECSDocOf(e *timeline.Event) ECSDoc { return outputs.ECSDocOf(e) }

// CSVCell neutralises a cell a spreadsheet would run as a formula
// (outputs.CSVCell).
func CSVCell(s string) string { return outputs.CSVCell(s) }

// CSVRow applies CSVCell to every cell of a row, in place.
func CSVRow(cells []string) []string { return outputs.CSVRow(cells) }

func createOutput(path string) (*os.File, error) { return outputs.CreateOutput(path) }
