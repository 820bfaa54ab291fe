// Package route is the engine's second stage: it decides which registered
// parsers read a collected file, from the file's catalog agent, target and
// kind and each parser's Match. It also tells the inputs stage which files
// to keep at all (Wants): a file no parser may read is hashed and
// accounted for, never spooled or opened for parsing.
//
// Secret-kind files (credentials the catalog lists so their presence is
// recorded) go only to parsers that declare parser.Spec.ReadsSecretKind;
// such a parser reports that a value exists, never the value.
package route
