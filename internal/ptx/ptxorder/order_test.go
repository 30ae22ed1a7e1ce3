package ptxorder

import "testing"

func TestVersionAndTargetOrder(t *testing.T) {
	if CompareVersions("8.10", "8.9") <= 0 || CompareVersions("", "1.0") >= 0 {
		t.Error("version order")
	}
	if CompareTargets("sm_90a", "sm_90") <= 0 || CompareTargets("sm_100f", "sm_90a") <= 0 || CompareTargets("", "sm_10") >= 0 {
		t.Error("target order")
	}
}
