package cursor

// deletedState is the recovered state of a conversation whose header
// outlived its composerData: "yes" when something of the conversation
// survives in the database (stray bubbles, agentKv:blob:* messages that
// name it: kept counts them), else "trace": only the header names it, the
// conversation existed and is gone (issue 30). The correlation pass reads
// "trace" as "yes" when another file (its agent transcript) holds its
// turns.
func deletedState(kept int) string {
	if kept > 0 {
		return "yes"
	}
	return "trace"
}
