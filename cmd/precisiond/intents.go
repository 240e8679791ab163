package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/cli"
	"github.com/precisiond/precisiond/internal/intent"
	"github.com/precisiond/precisiond/internal/surface"
)

var cmdIntentsSpec = &command{
	Command: cli.Command{
		Name:     "intents",
		Summary:  "the exact tool calls a request asks for (POST /v1/intents)",
		Synopsis: "[flags] TEXT",
		About: `Recognise the tool calls TEXT asks for, with the rules of POST /v1/intents
(docs/intents.md), and print its answer as one line of canonical JSON:
intents (tool, args, item, span), covered, declined (item, reason) and the
recognizer's version and hash. Nothing is run. --tools narrows the tools as
the server's allowlist does.
`,
		Args:     [][2]string{{"TEXT", "the request, at most 16384 bytes; '-' reads it from stdin"}},
		Exit:     "0 answered (covered or not), 1 an error, 2 usage error",
		Examples: []string{`precisiond intents "Berechne den GGT von 391 und 299."`, `precisiond intents "$(printf '1. Which weekday was 2026-07-29?\n2. Convert 72 km/h to m/s.')"`},
		Settings: []string{"tools"},
	},
	run: cmdIntents,
}

var cmdAnswerSpec = &command{
	Command: cli.Command{
		Name:     "answer",
		Summary:  "answer a covered request without a model (POST /v1/answer)",
		Synopsis: "[flags] TEXT",
		About: `Recognise TEXT as 'precisiond intents' does and, when it is covered, run
each intent in this process through the execution path of /invoke and print
the POST /v1/answer body as one line of canonical JSON: the deterministic
answer, the intents and one /invoke response per intent. A request that is
not covered prints the 422 not_covered body and exits 1.
`,
		Args:     [][2]string{{"TEXT", "the request, at most 16384 bytes; '-' reads it from stdin"}},
		Exit:     "0 answered, 1 not covered or a tool-level error (its body is printed), 2 usage error",
		Examples: []string{`precisiond answer "Which weekday was 2026-07-29?"`},
		Settings: []string{"data-dir", "store", "store-timeout", "public-base-url", "tools", "call-timeout", "download-ttl", "max-store-bytes", "log-level"},
	},
	stateDir: true,
	run:      cmdAnswer,
}

// intentArgs parses the flags and TEXT (or stdin for "-") of intents and
// answer.
func intentArgs(c *command, args []string, e *cli.Env) (*Config, string, int, bool) {
	cfg, rest, code, ok := c.start(args, e, -1, nil)
	if !ok {
		return nil, "", code, false
	}
	if len(rest) != 1 {
		return nil, "", c.Fail(e, "want exactly one TEXT, got %d arguments", len(rest)), false
	}
	text, ok := e.Text(rest[0], intent.MaxTextBytes)
	if !ok {
		fmt.Fprintf(e.Stderr, "precisiond %s: cannot read TEXT from stdin, or it exceeds %d bytes\n", c.Name, intent.MaxTextBytes)
		return nil, "", 2, false
	}
	return cfg, text, 0, true
}

func cmdIntents(c *command, args []string, e *cli.Env) int {
	cfg, text, code, ok := intentArgs(c, args, e)
	if !ok {
		return code
	}
	reg, _, err := newRegistry(*cfg, newLogger(e.Stderr, "error"), nil, nil, nil)
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond intents:", err)
		return 1
	}
	res, err := api.RecognizeFor(reg, text, nil)
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond intents:", err)
		return 1
	}
	printJSON(e.Stdout, res)
	return 0
}

func cmdAnswer(c *command, args []string, e *cli.Env) int {
	cfg, text, code, ok := intentArgs(c, args, e)
	if !ok {
		return code
	}
	reg, log, ok := callRegistry(*cfg, e)
	if !ok {
		return 1
	}
	res, err := api.RecognizeFor(reg, text, nil)
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond answer:", err)
		return 1
	}
	if !res.Covered {
		printJSON(e.Stdout, api.NotCoveredBody(res))
		return 1
	}
	body, err := api.AnswerCovered(context.Background(), reg, res, nil)
	var ce *intent.CallError
	if errors.As(err, &ce) {
		_, body := surface.ErrorResponse(context.Background(), log, ce.Tool, ce.Err)
		printJSON(e.Stdout, body)
		return 1
	}
	if err != nil {
		fmt.Fprintln(e.Stderr, "precisiond answer:", err)
		return 1
	}
	printJSON(e.Stdout, body)
	return 0
}
