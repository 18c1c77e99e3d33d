package search

// StopWords is the stop-word set of a language (ISO 639-1), folded as posts are; empty for
// languages without a list. The assistant drops these from questions before it searches.
func StopWords(language string) map[string]bool { return stopWordsOf(language) }
