package access

import (
	"crypto/tls"
	"fmt"
	"sync/atomic"
)

// CertReloader serves the TLS certificate last loaded from its files, so
// that a renewed certificate is taken up without a restart (Reload, on
// SIGHUP).
type CertReloader struct {
	certFile, keyFile string
	cur               atomic.Pointer[tls.Certificate]
}

// NewCertReloader loads the PEM certificate (chain) in certFile and its
// private key in keyFile.
func NewCertReloader(certFile, keyFile string) (*CertReloader, error) {
	c := &CertReloader{certFile: certFile, keyFile: keyFile}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	return c, nil
}

// CertFile is the certificate's file.
func (c *CertReloader) CertFile() string { return c.certFile }

// Reload re-reads the files; on an error the certificate loaded before
// stays in force.
func (c *CertReloader) Reload() error {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	c.cur.Store(&cert)
	return nil
}

// Config is the server's TLS configuration: TLS 1.2 at least, HTTP/2 and
// HTTP/1.1, the certificate last loaded.
func (c *CertReloader) Config() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"},
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return c.cur.Load(), nil
		},
	}
}
