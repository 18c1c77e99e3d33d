package nostr

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
)

// testKey is the private key the recorded events are signed with.
const testKey = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a"

// sign fills in ev's pubkey, id and signature with testKey.
func sign(t testing.TB, ev Event) Event {
	t.Helper()
	raw, _ := hex.DecodeString(testKey)
	priv, pub := btcec.PrivKeyFromBytes(raw)
	ev.PubKey = hex.EncodeToString(schnorr.SerializePubKey(pub))
	sum := sha256.Sum256(Serialize(ev))
	ev.ID = hex.EncodeToString(sum[:])
	sig, err := schnorr.Sign(priv, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	ev.Sig = hex.EncodeToString(sig.Serialize())
	return ev
}

// TestGenerateEvents rewrites testdata/events.json from testdata/notes.json when
// NOSTR_GENERATE is set: ROOT, SECOND and PUB in tags become the first and second events' ids
// and the key's public key.
func TestGenerateEvents(t *testing.T) {
	if os.Getenv("NOSTR_GENERATE") == "" {
		t.Skip("set NOSTR_GENERATE=1 to rewrite testdata/events.json")
	}
	var notes []Event
	b, _ := os.ReadFile("testdata/notes.json")
	if err := json.Unmarshal(b, &notes); err != nil {
		t.Fatal(err)
	}
	var out []Event
	for _, n := range notes {
		for _, tag := range n.Tags {
			for i, v := range tag {
				switch v {
				case "ROOT":
					tag[i] = out[0].ID
				case "SECOND":
					tag[i] = out[1].ID
				case "PUB":
					tag[i] = out[0].PubKey
				}
			}
		}
		out = append(out, sign(t, n))
	}
	var lines []string
	for _, ev := range out {
		b, _ := json.Marshal(ev)
		lines = append(lines, string(b))
	}
	os.WriteFile("testdata/events.json", []byte("[\n"+strings.Join(lines, ",\n")+"\n]\n"), 0o644)
}
