package main

import "testing"

// With no log variable set the SDKs' logs are off; a user asking for any log gets them as
// Terraform gives them, untouched.
func TestQuietSDKLogs(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want map[string]string
	}{
		{"nothing set", map[string]string{}, map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF"}},
		{"TF_LOG", map[string]string{"TF_LOG": "TRACE"}, map[string]string{"TF_LOG": "TRACE"}},
		{"provider only", map[string]string{"TF_LOG_PROVIDER": "DEBUG"}, map[string]string{"TF_LOG_PROVIDER": "DEBUG"}},
		{"SDK proto", map[string]string{"TF_LOG_SDK_PROTO": "TRACE"}, map[string]string{"TF_LOG_SDK_PROTO": "TRACE"}},
	} {
		env := map[string]string{}
		for k, v := range tc.env {
			env[k] = v
		}
		quietSDKLogs(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		if len(env) != len(tc.want) {
			t.Errorf("%s: env %v, want %v", tc.name, env, tc.want)
			continue
		}
		for k, v := range tc.want {
			if env[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.name, k, env[k], v)
			}
		}
	}
}
