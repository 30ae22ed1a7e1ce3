package amdxml

// Field looks up an encoding's field by name.
func (e *Encoding) Field(name string) (*Field, bool) {
	for i := range e.Fields {
		if e.Fields[i].Name == name {
			return &e.Fields[i], true
		}
	}
	return nil, false
}

// Extract reads the field's value out of the low 64 bits of an instruction
// (or operand) word, joining its ranges and padding the way AMD's decoder
// does. Ranges that lie beyond bit 63 read as zero.
func (f *Field) Extract(word uint64) uint64 {
	var v uint64
	for _, r := range f.Ranges {
		if r.BitOffset < 0 || r.BitOffset >= 64 || r.BitCount <= 0 {
			continue
		}
		bits := word >> r.BitOffset & lowBits(r.BitCount)
		if r.Padding != nil && r.Padding.BitCount > 0 {
			bits = bits<<r.Padding.BitCount | r.Padding.Value.Value&lowBits(r.Padding.BitCount)
		}
		v |= bits << r.ValueShift
	}
	return v
}

// Insert returns word with the field set to value: the inverse of Extract
// for the bits the word holds (padding bits are implied, not stored).
func (f *Field) Insert(word, value uint64) uint64 {
	for _, r := range f.Ranges {
		if r.BitOffset < 0 || r.BitOffset >= 64 || r.BitCount <= 0 {
			continue
		}
		shift := r.ValueShift
		if r.Padding != nil {
			shift += r.Padding.BitCount
		}
		bits := uint64(0)
		if shift < 64 {
			bits = value >> shift & lowBits(r.BitCount)
		}
		mask := lowBits(r.BitCount) << r.BitOffset
		word = word&^mask | bits<<r.BitOffset&mask
	}
	return word
}

func lowBits(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}
