package query

import (
	"iter"
	"slices"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

type lexKind uint8

const (
	lexWord lexKind = iota
	lexPhrase
	lexOpen  // (
	lexClose // )
	lexComma
	lexAnd
	lexOr
	lexMinus // exclusion of the next word, phrase or group
)

// lexeme is one unit of a query. The lexer never fails: the validator judges the lexemes.
type lexeme struct {
	kind lexKind
	// text is a word without its "~N" suffix, or the inside of a phrase.
	text string
	// tilde is set when "~" followed the word or the phrase's closing quote; digits follow it.
	tilde  bool
	digits string
	// closed is false for a phrase whose closing quote is missing.
	closed bool
	// noise marks a word with nothing searchable in it ("-", "!!", "&"): it is skipped.
	noise bool
}

func isOperator(k lexKind) bool { return k == lexAnd || k == lexOr }

// lex splits a query into lexemes. Words end at space, brackets, quotes and commas; AND and OR
// are operators only in capitals; a '-' starting a word, or directly before a quote or an
// opening bracket, excludes what follows.
func lex(q string) []lexeme {
	return slices.Collect(scan(q))
}

// scan yields the lexemes of q one by one, so that a look over an over-long query (usesAnd)
// holds none of them.
func scan(q string) iter.Seq[lexeme] {
	return func(yield func(lexeme) bool) {
		i := 0
		for i < len(q) {
			r, size := utf8.DecodeRuneInString(q[i:])
			var lx lexeme
			switch {
			case isSpace(r):
				i += size
				continue
			case r == '(':
				lx = lexeme{kind: lexOpen}
				i++
			case r == ')':
				lx = lexeme{kind: lexClose}
				i++
			case r == ',':
				lx = lexeme{kind: lexComma}
				i++
			case r == '"':
				end := i + 1
				for end < len(q) && q[end] != '"' {
					end++
				}
				lx = lexeme{kind: lexPhrase, text: q[i+1 : end], closed: end < len(q)}
				i = end
				if lx.closed {
					i++
					if i < len(q) && q[i] == '~' {
						lx.tilde = true
						i++
						start := i
						for i < len(q) && q[i] >= '0' && q[i] <= '9' {
							i++
						}
						lx.digits = q[start:i]
					}
				}
			default:
				end := i
				for end < len(q) {
					r, size := utf8.DecodeRuneInString(q[end:])
					if isSpace(r) || r == '(' || r == ')' || r == '"' || r == ',' {
						break
					}
					end += size
				}
				word := q[i:end]
				i = end
				if word[0] == '-' && (len(word) > 1 || (i < len(q) && (q[i] == '"' || q[i] == '('))) {
					if !yield(lexeme{kind: lexMinus}) {
						return
					}
					word = word[1:]
					if word == "" {
						continue
					}
				}
				lx = wordLexeme(word)
			}
			if !yield(lx) {
				return
			}
		}
	}
}

func wordLexeme(word string) lexeme {
	switch word {
	case "AND":
		return lexeme{kind: lexAnd, text: word}
	case "OR":
		return lexeme{kind: lexOr, text: word}
	}
	w := lexeme{kind: lexWord, text: word}
	// A trailing "~" with only digits after it asks for similarity.
	end := len(word)
	for end > 0 && word[end-1] >= '0' && word[end-1] <= '9' {
		end--
	}
	if end > 0 && word[end-1] == '~' {
		w.text, w.tilde, w.digits = word[:end-1], true, word[end:]
	}
	w.noise = !hasSearchable(w.text)
	return w
}

// hasSearchable reports whether text would give at least one query token.
func hasSearchable(text string) bool {
	for _, r := range norm.NFKD.String(text) {
		if r == wildcardMany || r == wildcardOne || isSearchable(r) {
			return true
		}
	}
	return false
}

// isLowercaseOperator reports whether a word is "and" or "or" in a case other than upper.
func isLowercaseOperator(word string) bool {
	lower := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	l := lower(word)
	return (l == "and" || l == "or") && word != "AND" && word != "OR"
}
