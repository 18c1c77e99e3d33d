package wait

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestUntilStill(t *testing.T) {
	tests := []struct {
		name    string
		try     func(call int) error
		wantErr string
	}{
		{"done at once", func(int) error { return nil }, ""},
		{"progress until done", func(call int) error {
			if call < 50 {
				return fmt.Errorf("%d of 50", call)
			}
			return nil
		}, ""},
		{"stuck", func(int) error { return errors.New("3 of 50") }, "3 of 50"},
		{"progress then stuck", func(call int) error {
			return fmt.Errorf("%d of 50", min(call, 7))
		}, "7 of 50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := 0
			// A still window of a millisecond: each changed error restarts it, so the cases that
			// progress pass however slowly the machine polls, and the stuck ones end.
			err := untilStill(func() error { call++; return tt.try(call) }, time.Millisecond)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("untilStill = %q, want %q", got, tt.wantErr)
			}
		})
	}
}
