package access

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/tick"
)

// Issue makes a new token for the client name (precisiond token new): the
// secret, shown once, and its line for the tokens file, which holds only
// its hash, with the tool globs it may call (nil: all) and its rate per
// minute (0: unlimited). The line is checked as the server would load it.
func Issue(name string, scope []string, ratePerMinute int) (secret string, line []byte, err error) {
	if ratePerMinute < 0 {
		return "", nil, fmt.Errorf("the rate must not be negative")
	}
	secret, entry, err := NewSecret(name)
	if err != nil {
		return "", nil, err
	}
	entry.Tools, entry.RatePerMinute = scope, ratePerMinute
	line, _ = json.Marshal(entry)
	if _, err := Parse([]byte(`{"tokens":[` + string(line) + `]}`)); err != nil {
		return "", nil, err
	}
	return secret, line, nil
}

// Loopback reports whether a listen address binds loopback only.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckExposure refuses to listen on a non-loopback address without API
// tokens unless insecure (--insecure-no-auth) says so explicitly; the error
// says how to issue and configure a token.
func CheckExposure(addr string, tokens, insecure bool) error {
	if Loopback(addr) || tokens || insecure {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without API tokens: anyone who can reach it could call every tool and read every generated file.\n"+
		"  Issue a token:   precisiond token new NAME   (prints the token once and its line for the tokens file)\n"+
		"  Configure it:    --api-tokens FILE (env PRECISIOND_API_TOKENS), FILE = {\"tokens\":[<the printed lines>]}\n"+
		"  Or bind loopback (--addr 127.0.0.1:8003), or pass --insecure-no-auth (env PRECISIOND_INSECURE_NO_AUTH=true)\n"+
		"  if a proxy or private network in front of precisiond already authenticates", addr)
}

// ReloadLogged re-reads the tokens file and logs the outcome with its
// trigger (why): an unreadable or invalid file keeps the current tokens.
func (k *Keyring) ReloadLogged(log *slog.Logger, why string) {
	changed, err := k.Reload()
	switch {
	case err != nil:
		log.Error("API tokens file unreadable or invalid; keeping the current tokens", "err", err.Error(), "trigger", why)
	case changed:
		log.Info("API tokens reloaded", "path", k.Path(), "tokens", k.Set().Len(), "trigger", why)
	}
}

// Watch re-reads the tokens file every interval until ctx ends (a read
// that finds it unchanged changes nothing).
func (k *Keyring) Watch(ctx context.Context, interval time.Duration, log *slog.Logger) {
	tick.Every(ctx, interval, func() { k.ReloadLogged(log, "file changed") })
}
