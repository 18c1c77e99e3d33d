package query

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mode selects the validation rules of a search box.
type Mode string

const (
	// ModeSavedSearch refuses lower-case and/or (saved searches, the search builder).
	ModeSavedSearch Mode = "saved_search"
	// ModeBeacon only warns about lower-case and/or (the Beacon search bar).
	ModeBeacon Mode = "beacon"
)

// Severity of an issue: an error blocks the search, a warning is only shown.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Issue is one failed rule. Code is stable (the API and the browser key on it); Message is the
// text shown to the user, also stable.
type Issue struct {
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Severity Severity `json:"severity"`
}

// Validation codes, in the order issues are reported.
const (
	CodeBlank                 = "blank"
	CodeTooLongWithAnd        = "too_long_with_and"
	CodeTooLong               = "too_long"
	CodeLowercaseOperator     = "lowercase_operator"
	CodeUnbalancedQuotes      = "unbalanced_quotes"
	CodeUnbalancedBrackets    = "unbalanced_brackets"
	CodeTooDeep               = "too_deep"
	CodeLeadingOperator       = "leading_operator"
	CodeTrailingOperator      = "trailing_operator"
	CodeOperatorAfterBracket  = "operator_after_bracket"
	CodeOperatorBeforeBracket = "operator_before_bracket"
	CodeConsecutiveOperators  = "consecutive_operators"
	CodeEmptyBrackets         = "empty_brackets"
	CodeEmptyQuotes           = "empty_quotes"
	CodeBareWildcard          = "bare_wildcard"
	CodeBadSimilarity         = "bad_similarity"
	CodeBadProximity          = "bad_proximity"
	CodeNoPositiveClause      = "no_positive_clause"
)

// Limits of the language.
const (
	MaxLengthWithAnd  = 255  // characters, when the query uses AND
	MaxLength         = 2000 // characters otherwise
	MaxSimilarWord    = 32   // characters of a word~ (before analysis)
	MaxSlop           = 100  // the N of "a b"~N
	MaxProximityWords = 32   // tokens of a "…"~N phrase
	MaxDepth          = 32   // groups and exclusions nested in one another
)

// BlankSearchNotice is the spec's text for a blank search submitted from the results page.
const BlankSearchNotice = "You've submitted a blank search. Tell us what you'd like to search for!"

// Codes lists every code in report order, with its message.
var Codes = []struct{ Code, Message string }{
	{CodeBlank, "Search cannot be empty"},
	{CodeTooLongWithAnd, "Searches that use AND can be at most 255 characters long"},
	{CodeTooLong, "Searches can be at most 2000 characters long"},
	{CodeLowercaseOperator, "Write the operators AND and OR in capitals, or put the word in quotes to search for it"},
	{CodeUnbalancedQuotes, "Quotes must come in pairs"},
	{CodeUnbalancedBrackets, "Every opening bracket needs a closing bracket, and every closing bracket an opening one"},
	{CodeTooDeep, "Brackets and exclusions can be nested at most 32 levels deep"},
	{CodeLeadingOperator, "A search cannot start with AND or OR"},
	{CodeTrailingOperator, "A search cannot end with AND or OR"},
	{CodeOperatorAfterBracket, "AND or OR cannot come right after an opening bracket"},
	{CodeOperatorBeforeBracket, "AND or OR cannot come right before a closing bracket"},
	{CodeConsecutiveOperators, "Two operators cannot follow each other; put a keyword between them"},
	{CodeEmptyBrackets, "Brackets must contain a keyword"},
	{CodeEmptyQuotes, "Quotes must contain a word or phrase"},
	{CodeBareWildcard, "A wildcard (* or ?) needs at least one letter or digit in the same word"},
	{CodeBadSimilarity, "Similarity (~) works on one word of at most 32 characters without wildcards, with at most 2 differences: word~, word~1 or word~2"},
	{CodeBadProximity, `Proximity needs a quoted phrase of at most 32 words, then ~ and a distance from 0 to 100, like "word1 word2"~5`},
	{CodeNoPositiveClause, "A search needs at least one keyword that is not excluded, and so does each OR alternative"},
}

// HasError reports whether any issue is an error.
func HasError(issues []Issue) bool {
	for _, is := range issues {
		if is.Severity == SeverityError {
			return true
		}
	}
	return false
}

// TooLong returns the length issue of a query longer than MaxLength, judged on its length
// alone, before any lexeme or tree is built for it, so that the size of an input never reaches
// the parser; nil for any other query. Parse applies it first; the API also applies it to
// every query-bearing field as soon as it is decoded.
func TooLong(q string) *Issue {
	if len(q) <= MaxLength || utf8.RuneCountInString(q) <= MaxLength || strings.TrimFunc(q, isSpace) == "" {
		return nil
	}
	code := CodeTooLong
	if usesAnd(q) {
		code = CodeTooLongWithAnd
	}
	return &issuesOf(map[string]bool{code: true}, ModeSavedSearch)[0]
}

// usesAnd reports whether q has the AND operator, holding no lexeme but the current one.
func usesAnd(q string) bool {
	for lx := range scan(q) {
		if lx.kind == lexAnd {
			return true
		}
	}
	return false
}

// check applies every rule and reports each failing one once, in the order of Codes. tooDeep
// says the parser gave up on nesting beyond MaxDepth; root is then partial and not judged.
func check(q string, all, sig []lexeme, root Node, tooDeep bool, mode Mode) []Issue {
	failed := map[string]bool{}
	if strings.TrimFunc(q, isSpace) == "" {
		failed[CodeBlank] = true
		return issuesOf(failed, mode)
	}

	hasAnd := false
	for _, lx := range all {
		hasAnd = hasAnd || lx.kind == lexAnd
	}
	length := utf8.RuneCountInString(q)
	if hasAnd && length > MaxLengthWithAnd {
		failed[CodeTooLongWithAnd] = true
	} else if length > MaxLength {
		failed[CodeTooLong] = true
	}

	if strings.Count(q, `"`)%2 == 1 {
		failed[CodeUnbalancedQuotes] = true
	}

	depth := 0
	for _, lx := range all {
		switch lx.kind {
		case lexOpen:
			depth++
		case lexClose:
			depth--
			if depth < 0 {
				failed[CodeUnbalancedBrackets] = true
				depth = 0
			}
		}
	}
	if depth > 0 {
		failed[CodeUnbalancedBrackets] = true
	}

	for _, lx := range all {
		switch lx.kind {
		case lexWord:
			if !lx.tilde && isLowercaseOperator(lx.text) {
				failed[CodeLowercaseOperator] = true
			}
			if lx.noise {
				continue
			}
			checkTokens(lx.text, failed)
			if lx.tilde && !validSimilarity(lx) {
				failed[CodeBadSimilarity] = true
			}
		case lexPhrase:
			if !hasSearchable(lx.text) {
				failed[CodeEmptyQuotes] = true
			}
			checkTokens(lx.text, failed)
			if lx.tilde && !validProximity(lx) {
				failed[CodeBadProximity] = true
			}
		}
	}

	checkOperators(sig, failed)

	if tooDeep {
		failed[CodeTooDeep] = true
	} else if root == nil || !hasPositiveClause(root) {
		failed[CodeNoPositiveClause] = true
	}
	return issuesOf(failed, mode)
}

// checkTokens flags tokens made of wildcards only.
func checkTokens(text string, failed map[string]bool) {
	for _, tok := range rawQueryTokens(text) {
		if strings.IndexFunc(tok, isSearchable) < 0 {
			failed[CodeBareWildcard] = true
		}
	}
}

func validSimilarity(lx lexeme) bool {
	return (lx.digits == "" || (len(lx.digits) == 1 && lx.digits[0] <= '0'+MaxEdits)) &&
		!strings.ContainsAny(lx.text, "*?") &&
		utf8.RuneCountInString(lx.text) <= MaxSimilarWord
}

func validProximity(lx lexeme) bool {
	if lx.digits == "" || len(lx.digits) > 3 {
		return false
	}
	n, _ := strconv.Atoi(lx.digits)
	return n <= MaxSlop && len(rawQueryTokens(lx.text)) <= MaxProximityWords
}

// checkOperators applies the rules about where AND and OR may stand. Commas are soft
// separators: any number of them may stand anywhere, except right beside an operator.
func checkOperators(sig []lexeme, failed map[string]bool) {
	// next returns the index of the first lexeme from i on that is not skipped.
	next := func(i int, skip ...lexKind) int {
		for i < len(sig) && containsKind(skip, sig[i].kind) {
			i++
		}
		return i
	}
	if i := next(0, lexComma); i < len(sig) && isOperator(sig[i].kind) {
		failed[CodeLeadingOperator] = true
	}
	last := len(sig) - 1
	for last >= 0 && sig[last].kind == lexComma {
		last--
	}
	if last >= 0 && isOperator(sig[last].kind) {
		failed[CodeTrailingOperator] = true
	}
	for i, lx := range sig {
		switch {
		case lx.kind == lexOpen:
			j := next(i+1, lexComma)
			if j < len(sig) && isOperator(sig[j].kind) {
				failed[CodeOperatorAfterBracket] = true
			}
			if j := next(i+1, lexComma, lexMinus); j < len(sig) && sig[j].kind == lexClose {
				failed[CodeEmptyBrackets] = true
			}
		case isOperator(lx.kind):
			if j := next(i+1, lexComma); j < len(sig) && sig[j].kind == lexClose {
				failed[CodeOperatorBeforeBracket] = true
			}
			if j := next(i+1, lexMinus); j < len(sig) && (isOperator(sig[j].kind) || sig[j].kind == lexComma) {
				failed[CodeConsecutiveOperators] = true
			}
		case lx.kind == lexComma:
			if j := next(i+1, lexMinus); j < len(sig) && isOperator(sig[j].kind) {
				failed[CodeConsecutiveOperators] = true
			}
		}
	}
}

func containsKind(kinds []lexKind, k lexKind) bool {
	for _, c := range kinds {
		if c == k {
			return true
		}
	}
	return false
}

func issuesOf(failed map[string]bool, mode Mode) []Issue {
	var issues []Issue
	for _, c := range Codes {
		if !failed[c.Code] {
			continue
		}
		sev := SeverityError
		if c.Code == CodeLowercaseOperator && mode == ModeBeacon {
			sev = SeverityWarning
		}
		issues = append(issues, Issue{Code: c.Code, Message: c.Message, Severity: sev})
	}
	return issues
}
