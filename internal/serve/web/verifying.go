package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Verification is what a serve that started from a provisional database
// (isa.BuildInfo.Provisional: the documents' facts alone, built in seconds
// so the first page answers at once) says about the oracle passes it runs in
// the background. Each pass writes a more-verified database generation,
// which the Site swaps to whole as it lands.
type Verification struct {
	// Running is true until the last pass has landed or one failed.
	Running bool `json:"running"`
	// Pass is the pass running now, "2 of 2: ptxas, nvdisasm, pages".
	Pass string `json:"pass,omitempty"`
	// Step is the build step running now with its progress, as the build
	// log prints it: "verifying PTX forms with ptxas on 37 targets".
	Step  string `json:"step,omitempty"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	// Started is when the passes began; Elapsed is how long they have run
	// (or ran), rounded to the second.
	Started time.Time `json:"started"`
	Elapsed string    `json:"elapsed"`
	// Landed are the passes whose database is being served or was, oldest
	// first, with how long each took: "1 of 2: llvm-mc, llvm-mca, opt (2m10s)".
	Landed []string `json:"landed,omitempty"`
	// Failed is why the last pass did not land ("" when none failed); the
	// site goes on serving the generation it has.
	Failed string `json:"failed,omitempty"`
}

// Summary is the one line the page banner shows: "ptxas: 12 of 37 targets".
func (v Verification) Summary() string {
	switch {
	case v.Failed != "":
		return "verification failed: " + v.Failed
	case !v.Running:
		return "verification finished in " + v.Elapsed
	case v.Step == "":
		return "starting (pass " + v.Pass + ")"
	case v.Total > 1:
		return fmt.Sprintf("%s: %d of %d (pass %s)", v.Step, v.Done, v.Total, v.Pass)
	}
	return fmt.Sprintf("%s (pass %s)", v.Step, v.Pass)
}

// statusAnswer is /api/v1/status: the build being served and, while serve
// verifies in the background, how far it has got.
type statusAnswer struct {
	Build string `json:"build"`
	// Provisional is what the served database has not verified yet ("":
	// nothing).
	Provisional  string        `json:"provisional,omitempty"`
	Verification *Verification `json:"verification,omitempty"`
	// Summary is the banner's line (Verification.Summary), "" without one.
	Summary string `json:"summary,omitempty"`
}

// verification is the background verification's state now, nil when this
// serve runs none.
func (s *server) verification() *Verification {
	if s.verify == nil {
		return nil
	}
	v := s.verify()
	return &v
}

// apiStatus is never kept: it changes while the database does not.
func (s *server) apiStatus(w http.ResponseWriter, r *http.Request) {
	st := statusAnswer{Build: s.info.ID, Provisional: s.info.Provisional, Verification: s.verification()}
	if st.Verification != nil {
		st.Summary = st.Verification.Summary()
	}
	body, err := json.Marshal(st)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.send(w, r, response{status: http.StatusOK, contentType: jsonType, body: append(body, '\n')})
}
