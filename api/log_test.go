package api

import (
	"log/slog"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// syncBuf lets concurrent handlers log into one test buffer that tests read.
type syncBuf = testhttp.SyncBuffer

func newBufLogger(buf *syncBuf) *slog.Logger {
	return slog.New(slog.NewJSONHandler(buf, nil))
}
