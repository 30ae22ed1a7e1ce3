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
		m := Match{Concept: k}
		for _, r := range k.Relations {
			if r.PTX == mnemonic {
				m.Relations = append(m.Relations, r)
				if a, ok := k.amdMember(r.AMD); ok {
					m.Others = appendMember(m.Others, a)
				}
			}
		}
		out = append(out, m)
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
		m := Match{Concept: k}
		for _, r := range k.Relations {
			if r.AMD == mnemonic {
				m.Relations = append(m.Relations, r)
				if p, ok := k.ptxMember(r.PTX); ok {
					m.Others = appendMember(m.Others, p)
				}
			}
		}
		out = append(out, m)
	}
	return out
}

func (k *Concept) amdMember(mnemonic string) (Member, bool) {
	for _, m := range k.AMD {
		if m.Mnemonic == mnemonic {
			return m, true
		}
	}
	return Member{}, false
}

func (k *Concept) ptxMember(mnemonic string) (Member, bool) {
	for _, m := range k.PTX {
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
