// Package geminiapps reads what a home holds of Gemini Apps (the Gemini
// web and mobile apps, gemini.google.com): nothing of the app itself. Its
// conversations live in the Google account, not on the machine; there is
// no desktop client writing files under a home (kenn-io/agentsview
// internal/parser/types.go at 5386007 declares AgentGeminiApps with no
// directory, FileBased false: it reads only a Google Takeout export handed
// to it, gemini_apps_takeout.go). What a home can hold is such an export,
// downloaded and unpacked: Takeout/My Activity/Gemini Apps/MyActivity.json
// (or .html, the format Takeout offers by default; "Bard" in older
// exports) under Downloads, Desktop or Documents. The catalog collects
// those; this package reads the JSON form.
//
// Evidence: the Takeout My Activity JSON export, an array of activity
// records {header, title, time (RFC 3339 UTC), products, activityControls,
// safeHtmlItem [{html}], attachedFiles, subtitles, details}, as Google
// documents and exports it; the "Prompted <text>" title of a prompt and
// the response in safeHtmlItem as agentsview's gemini_apps_takeout.go at
// 5386007 reads them from the HTML form. No export was made here (it
// needs a Google account): the fixture is built from that shape.
//
// Rows: a record of the product Gemini Apps whose title starts "Prompted "
// gives a user row (the prompt as the person typed it) and, per
// safeHtmlItem, an assistant row with the response as Takeout stores it
// (HTML, not rendered) and a system row naming attached files; any other
// Gemini Apps record (a Gem created, feedback, a feature used) is a system
// row with its title; a record of another product is a skipped_record
// problem; a record that does not decode is a problem and the rest of the
// array is read; a file that is no JSON array is one problem. Takeout keeps
// no conversation id: each record is its own session "activity-<time>",
// its record id the time ("@<n>" for a repeat of one time, "#<n>" for
// the n-th row of a record). The HTML export is
// collected, not parsed (no parser matches it; the inventory lists it as
// collected and not read).
package geminiapps
