package tlsconf

import "testing"

func TestClient(t *testing.T) {
	c, err := Client("leaf-1.example:8765", nil, false)
	if err != nil || c.ServerName != "leaf-1.example" || c.InsecureSkipVerify || c.RootCAs != nil || c.MinVersion == 0 {
		t.Errorf("system roots: %+v %v", c, err)
	}
	if _, err := Client("leaf-1:8765", []byte("not a certificate"), false); err == nil {
		t.Error("a CA without a PEM certificate must be refused")
	}
	if c, err := Client("leaf-1:8765", []byte("ignored"), true); err != nil || !c.InsecureSkipVerify {
		t.Errorf("insecure: %+v %v", c, err)
	}
}
