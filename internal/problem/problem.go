// Package problem defines the errors domains report to their callers: a kind that the API turns
// into a status code, a message for people, and per-field details. Domains never speak HTTP;
// they say what went wrong, and internal/api decides how it is sent.
package problem

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies a problem.
type Kind int

const (
	KindInvalid              Kind = iota + 1 // the request breaks a rule (422)
	KindUnauthenticated                      // no or bad credentials (401)
	KindForbidden                            // authenticated, not allowed (403)
	KindNotFound                             // no such thing, or not visible to the caller (404)
	KindConflict                             // clashes with what is stored (409)
	KindRateLimited                          // too many attempts (429)
	KindLimitExceeded                        // an organization's data or asset limit (422, limitExceeded)
	KindUnsupportedMediaType                 // a body in a format the endpoint does not take (415)
	KindTooLarge                             // the request is bigger than one request may be (413)
	KindUnavailable                          // the server was not given what the request needs (503)
	KindBadGateway                           // a server called on the request's behalf failed (502)
)

// Problem is an error with everything the API needs to describe it.
type Problem struct {
	Kind    Kind
	Message string
	// Fields holds per-field messages, as in the spec's error shape `errors`.
	Fields map[string][]string
	// Title and Description are shown by dialogs such as "Data Limits Reached".
	Title       string
	Description string
	// RetryAfter tells a rate-limited caller when to come back.
	RetryAfter time.Duration
	// Extra carries additional reply fields (for example mfaRequired or blacklistedKeywords).
	Extra map[string]any
}

func (p *Problem) Error() string { return p.Message }

// As returns the Problem inside err, if any.
func As(err error) (*Problem, bool) {
	var p *Problem
	ok := errors.As(err, &p)
	return p, ok
}

// Is reports whether err is a Problem of the given kind.
func Is(err error, kind Kind) bool {
	p, ok := As(err)
	return ok && p.Kind == kind
}

func Invalid(message string, fields map[string][]string) *Problem {
	return &Problem{Kind: KindInvalid, Message: message, Fields: fields}
}

// InvalidField is a validation failure of one field.
func InvalidField(field, message string) *Problem {
	return Invalid(message, map[string][]string{field: {message}})
}

func Unauthenticated(message string) *Problem {
	return &Problem{Kind: KindUnauthenticated, Message: message}
}

func Forbidden(message string) *Problem { return &Problem{Kind: KindForbidden, Message: message} }

func NotFound(format string, args ...any) *Problem {
	return &Problem{Kind: KindNotFound, Message: fmt.Sprintf(format, args...)}
}

func Conflict(message string) *Problem { return &Problem{Kind: KindConflict, Message: message} }

func RateLimited(message string, retryAfter time.Duration) *Problem {
	return &Problem{Kind: KindRateLimited, Message: message, RetryAfter: retryAfter}
}

func LimitExceeded(title, description string) *Problem {
	return &Problem{Kind: KindLimitExceeded, Message: title, Title: title, Description: description}
}

// UnsupportedMediaType refuses a body sent in a format the endpoint does not read.
func UnsupportedMediaType(message string) *Problem {
	return &Problem{Kind: KindUnsupportedMediaType, Message: message}
}

// TooLarge says the request exceeds a size bound; the caller should split it.
func TooLarge(message string) *Problem { return &Problem{Kind: KindTooLarge, Message: message} }

// Unavailable says the server lacks what the request needs (a backend it was not given).
func Unavailable(message string) *Problem { return &Problem{Kind: KindUnavailable, Message: message} }

// BadGateway says a server this one called on the request's behalf failed.
func BadGateway(message string) *Problem { return &Problem{Kind: KindBadGateway, Message: message} }
