package tools

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// CheckExamples runs every contract example of the tools in list through the
// execution path of a private registry (no limiter, no observer, a deadline of
// selfCheckTimeout per call): argument parsing, defaults, validation in and
// out, envelope and max_result_chars included. It returns an error naming the first example
// whose call fails or whose facts differ from the documented ones. Examples of
// a tool that writes (access_kind "write") write into that tool's store, so
// pass such tools built over a throwaway store, or leave them out (ReadOnly).
func CheckExamples(ctx context.Context, list []Tool) error {
	reg := NewRegistry(list, Options{DefaultTimeout: selfCheckTimeout})
	for _, e := range reg.tools {
		for _, ex := range e.contract.Examples {
			args, err := evidence.Canonical(ex.Args)
			if err != nil {
				return fmt.Errorf("%s example %q: %v", e.contract.Tool, ex.Title, err)
			}
			resp, err := reg.Call(ctx, e.contract.Tool, args, e.contractHash)
			if err != nil {
				return fmt.Errorf("%s example %q: %v", e.contract.Tool, ex.Title, err)
			}
			got, err1 := evidence.Canonical(resp.Envelope.Facts())
			want, err2 := evidence.Canonical(ex.Facts)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				return fmt.Errorf("%s example %q: facts %s, documented %s", e.contract.Tool, ex.Title, got, want)
			}
		}
	}
	return nil
}

// selfCheckTimeout bounds one example call of CheckExamples. It checks answers,
// not speed: a first call that loads its tables (token_count's ranks) on a
// loaded machine, under the race detector, must not fail a start; a hang still
// ends.
const selfCheckTimeout = 2 * time.Minute

// ReadOnly returns the tools of list whose contract declares access_kind
// "read": running their examples has no side effect.
func ReadOnly(list []Tool) []Tool {
	var out []Tool
	for _, t := range list {
		if t.Contract.AccessKind == "read" {
			out = append(out, t)
		}
	}
	return out
}

// StartupSelfCheck is the example self-check of the long-running commands
// (serve, mcp): the examples of every read-only built-in tool run
// through the execution path, and an error stops the start. The examples
// of tools that write (generate_file) are left out, so that starting has no
// side effect on the data directory and works on a read-only one;
// `precisiond selfcheck` runs every example, those against a throwaway
// store.
func StartupSelfCheck(ctx context.Context) error {
	if err := CheckExamples(ctx, ReadOnly(Builtin(Deps{}))); err != nil {
		return fmt.Errorf("start-up self-check: %w", err)
	}
	return nil
}

// CountExamples is how many contract examples the tools of list have.
func CountExamples(list []Tool) int {
	n := 0
	for _, t := range list {
		n += len(t.Contract.Examples)
	}
	return n
}
