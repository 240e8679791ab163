package access

import (
	"crypto/tls"
	"log/slog"
	"net"
)

// Edge is what a serving process reloads of its access configuration.
type Edge struct {
	Tokens *Keyring      // the API tokens file; nil: no API tokens
	Certs  *CertReloader // the TLS certificate; nil: plain HTTP
}

// Listener is ln, wrapped in TLS when a certificate is configured.
func (e Edge) Listener(ln net.Listener) net.Listener {
	if e.Certs == nil {
		return ln
	}
	return tls.NewListener(ln, e.Certs.Config())
}

// Reload re-reads the tokens file and the TLS certificate (SIGHUP); an
// invalid file or certificate leaves the current one in force.
func (e Edge) Reload(log *slog.Logger) {
	if e.Tokens != nil {
		e.Tokens.ReloadLogged(log, "SIGHUP")
	}
	if c := e.Certs; c != nil {
		if err := c.Reload(); err != nil {
			log.Error("TLS certificate reload failed; keeping the current one", "err", err.Error())
		} else {
			log.Info("TLS certificate reloaded", "cert", c.CertFile())
		}
	}
}
