package api

import (
	"bytes"
	"log/slog"
	"sync"
)

// syncBuf lets concurrent handlers log into one test buffer that tests read.
type syncBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func newBufLogger(buf *syncBuf) *slog.Logger {
	return slog.New(slog.NewJSONHandler(buf, nil))
}
