package api

import (
	"log/slog"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// syncBuf lets concurrent handlers log into one test buffer that tests read.
type syncBuf = testhttp.SyncBuffer

// newBufLogger is the service's logger (NewLogger) at info level into buf.
func newBufLogger(buf *syncBuf) *slog.Logger {
	return NewLogger(buf, nil)
}
