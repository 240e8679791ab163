package blob

import (
	"context"
	"errors"
	"io"
)

// ReadSeeker reads one version of an object (the ETag of info) as an
// io.ReadSeekCloser, so http.ServeContent can answer Range and conditional
// requests from a store: seeking costs nothing, and the first Read after a seek
// opens a stream from that offset, pinned to the ETag (if the object was
// replaced meanwhile the Read fails with ErrPreconditionFailed instead of mixing
// two versions). The caller must Close it.
type ReadSeeker struct {
	ctx  context.Context
	s    Store
	info Info
	off  int64
	obj  *Object
}

// NewReadSeeker returns a ReadSeeker for the object info describes (from Stat).
func NewReadSeeker(ctx context.Context, s Store, info Info) *ReadSeeker {
	return &ReadSeeker{ctx: ctx, s: s, info: info}
}

// Read reads from the current offset.
func (r *ReadSeeker) Read(p []byte) (int, error) {
	if r.off >= r.info.Size {
		return 0, io.EOF
	}
	if r.obj == nil {
		obj, err := r.s.Get(r.ctx, r.info.Key, GetOptions{Range: &Range{Offset: r.off, Length: -1}, IfMatch: r.info.ETag})
		if err != nil {
			return 0, err
		}
		if obj.Offset != r.off || obj.Offset+obj.Length != r.info.Size {
			_ = obj.Close()
			return 0, &Error{Op: "read", Key: r.info.Key, Kind: ErrPreconditionFailed, Err: errors.New("the object changed size")}
		}
		r.obj = obj
	}
	n, err := r.obj.Read(p)
	r.off += int64(n)
	return n, err
}

// Seek sets the offset for the next Read; it does no I/O.
func (r *ReadSeeker) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.info.Size
	case io.SeekStart:
	default:
		return r.off, errors.New("blob: invalid whence")
	}
	if offset < 0 {
		return r.off, errors.New("blob: negative position")
	}
	if offset != r.off {
		r.off = offset
		_ = r.Close()
	}
	return offset, nil
}

// Close closes the open stream, if any; the ReadSeeker stays usable.
func (r *ReadSeeker) Close() error {
	if r.obj == nil {
		return nil
	}
	err := r.obj.Close()
	r.obj = nil
	return err
}
