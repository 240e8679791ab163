// Package idleconns bounds a server's idle keep-alive connections by the
// process's descriptor budget (issue 34).
package idleconns

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// Conns bounds the keep-alive connections that sit idle between
// requests by the descriptor budget, not only by the server's IdleTimeout
// (issue 34): a client that opens many connections and leaves them idle
// would otherwise hold a descriptor each for two minutes and starve
// /health. When more than max are idle, the one idle longest is closed (an
// idle connection has no request in flight: its client reconnects).
type Conns struct {
	mu    sync.Mutex
	max   int
	order *list.List                 // idle connections, oldest first
	at    map[net.Conn]*list.Element // their places in order
	// OnIdle, for tests, is told each time a connection turns idle.
	OnIdle func()
}

func New(max int) *Conns {
	return &Conns{max: max, order: list.New(), at: map[net.Conn]*list.Element{}}
}

// ConnState is the http.Server ConnState hook.
func (ic *Conns) ConnState(c net.Conn, s http.ConnState) {
	var victim net.Conn
	ic.mu.Lock()
	if e, ok := ic.at[c]; ok {
		ic.order.Remove(e)
		delete(ic.at, c)
	}
	if s == http.StateIdle {
		ic.at[c] = ic.order.PushBack(c)
		if ic.order.Len() > ic.max {
			oldest := ic.order.Front()
			victim = oldest.Value.(net.Conn)
			ic.order.Remove(oldest)
			delete(ic.at, victim)
		}
	}
	ic.mu.Unlock()
	if victim != nil {
		// The server sees the close as StateClosed on its next read.
		_ = victim.Close()
	}
	if s == http.StateIdle && ic.OnIdle != nil {
		ic.OnIdle()
	}
}

// Idle is the number of connections idle now.
func (ic *Conns) Idle() int {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	return ic.order.Len()
}
