package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
)

// TestEngineLogsAreJSON: an engine that logs through slog's default (the
// solve_equation self-check) writes a JSON line into the command's log.
func TestEngineLogsAreJSON(t *testing.T) {
	old := slog.Default()
	t.Cleanup(func() { slog.SetDefault(old) })
	var buf bytes.Buffer
	newLogger(&buf, "info")
	slog.Default().Error("engine says", "reason", "root_verification_failed")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["msg"] != "engine says" || line["reason"] != "root_verification_failed" {
		t.Fatalf("engine log line %q is not the command's JSON (%v)", buf.String(), err)
	}
}
