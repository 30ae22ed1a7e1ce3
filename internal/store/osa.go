package store

import "unicode/utf8"

// osaPattern computes the optimal-string-alignment distance (fuzzy.Distance)
// from one ASCII pattern of at most 64 bytes to many names, bit-parallel
// (Hyyrö 2003, the transposition extension of Myers' algorithm): one pass
// over the name, a handful of word operations per byte, no allocation.
type osaPattern struct {
	peq  [128]uint64 // positions of each byte in the pattern
	m    int
	mask uint64 // the pattern's last position
}

// compile prepares p; false when p is empty, longer than 64 bytes or not
// ASCII (fuzzy.Distance handles those).
func (o *osaPattern) compile(p string) bool {
	if len(p) == 0 || len(p) > 64 {
		return false
	}
	*o = osaPattern{m: len(p), mask: 1 << (len(p) - 1)}
	for i := 0; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			return false
		}
		o.peq[p[i]] |= 1 << i
	}
	return true
}

// distance returns the distance from the pattern to t; non-ASCII bytes of t
// match nothing in an ASCII pattern, as their runes would not.
func (o *osaPattern) distance(t string) int {
	full, _ := o.distances(t)
	return full
}

// distances returns the distance from the pattern to t, and the least
// distance from it to a beginning of t that ends where one of t's name
// parts does (before a '_' or '.', or at t's end): "v_readfristlane" is one
// edit from v_readfirstlane_b32's v_readfirstlane. The algorithm keeps the
// distance to each beginning of t as it goes, so the second costs nothing.
func (o *osaPattern) distances(t string) (full, part int) {
	vp, vn, d0, pmOld := ^uint64(0), uint64(0), uint64(0), uint64(0)
	dist := o.m
	part = -1
	runes := 0
	for i := 0; i < len(t); {
		var pm uint64
		if c := t[i]; c < utf8.RuneSelf {
			pm = o.peq[c]
			i++
		} else {
			_, size := utf8.DecodeRuneInString(t[i:])
			i += size
		}
		runes++
		tr := ((^d0 & pm) << 1) & pmOld
		d0 = (((pm & vp) + vp) ^ vp) | pm | vn | tr
		hp := vn | ^(d0 | vp)
		hn := d0 & vp
		if hp&o.mask != 0 {
			dist++
		} else if hn&o.mask != 0 {
			dist--
		}
		hp = hp<<1 | 1
		hn <<= 1
		vp = hn | ^(d0 | hp)
		vn = hp & d0
		pmOld = pm
		if (i == len(t) || t[i] == '_' || t[i] == '.') && (part < 0 || dist < part) {
			part = dist
		}
	}
	if part < 0 {
		part = dist // t is empty
	}
	return dist, part
}
