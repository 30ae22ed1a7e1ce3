package concepts

// Match is one concept a mnemonic belongs to, as pages show it: the concept,
// the relations that involve the mnemonic, and the other vendor's members
// those relations lead to.
type Match struct {
	Concept   *Concept
	Relations []Relation
	Others    []Member
}

// ForPTX returns the concepts a PTX mnemonic belongs to, in catalogue order,
// with its relations to AMD members and those members.
func (c *Catalogue) ForPTX(mnemonic string) []Match {
	var out []Match
	for _, k := range c.byPTX[mnemonic] {
		out = append(out, k.match(mnemonic, true))
	}
	return out
}

// ForAMD returns the concepts an AMD mnemonic belongs to on arch (every
// family when arch is ""), with its relations to PTX members and those
// members. A member that lists families applies only on those.
func (c *Catalogue) ForAMD(arch, mnemonic string) []Match {
	var out []Match
	for _, k := range c.byAMD[mnemonic] {
		a, _ := k.amdMember(mnemonic)
		if !a.AppliesOn(arch) {
			continue
		}
		out = append(out, k.match(mnemonic, false))
	}
	return out
}

// match is k as seen from its member mnemonic, a PTX member when ptx is
// set, else an AMD one: the relations that involve it and the other
// vendor's members they lead to.
func (k *Concept) match(mnemonic string, ptx bool) Match {
	m := Match{Concept: k}
	for _, r := range k.Relations {
		mine, theirs, other := r.AMD, r.PTX, k.ptxMember
		if ptx {
			mine, theirs, other = r.PTX, r.AMD, k.amdMember
		}
		if mine != mnemonic {
			continue
		}
		m.Relations = append(m.Relations, r)
		if o, ok := other(theirs); ok {
			m.Others = appendMember(m.Others, o)
		}
	}
	return m
}

func (k *Concept) amdMember(mnemonic string) (Member, bool) { return member(k.AMD, mnemonic) }

func (k *Concept) ptxMember(mnemonic string) (Member, bool) { return member(k.PTX, mnemonic) }

func member(ms []Member, mnemonic string) (Member, bool) {
	for _, m := range ms {
		if m.Mnemonic == mnemonic {
			return m, true
		}
	}
	return Member{}, false
}

func appendMember(ms []Member, m Member) []Member {
	for _, x := range ms {
		if x.Mnemonic == m.Mnemonic {
			return ms
		}
	}
	return append(ms, m)
}
