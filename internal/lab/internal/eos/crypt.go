package eos

// SHA-512 crypt ($6$, Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512", 5000 rounds),
// for the `username ... secret sha512 $6$...` line: EOS stores and shows its local users'
// passwords this way, and a real hash lets an engineer check it with any crypt tool.

import (
	"crypto/rand"
	"crypto/sha512"
	"strings"
)

const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newCryptSalt is 16 random characters of the crypt alphabet.
func newCryptSalt() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	for i := range b {
		b[i] = cryptAlphabet[int(b[i])%len(cryptAlphabet)]
	}
	return string(b)
}

// sha512Crypt returns $6$salt$hash for password (salt at most 16 characters).
func sha512Crypt(password, salt string) string {
	p, s := []byte(password), []byte(salt)
	alt := sha512.New()
	alt.Write(p)
	alt.Write(s)
	alt.Write(p)
	b := alt.Sum(nil)

	h := sha512.New()
	h.Write(p)
	h.Write(s)
	for i := len(p); i > 0; i -= 64 {
		h.Write(b[:min(i, 64)])
	}
	for i := len(p); i > 0; i >>= 1 {
		if i&1 != 0 {
			h.Write(b)
		} else {
			h.Write(p)
		}
	}
	c := h.Sum(nil)

	pBytes := repeatDigest(p, len(p), len(p))
	sBytes := repeatDigest(s, 16+int(c[0]), len(s))
	for i := range 5000 {
		r := sha512.New()
		if i&1 != 0 {
			r.Write(pBytes)
		} else {
			r.Write(c)
		}
		if i%3 != 0 {
			r.Write(sBytes)
		}
		if i%7 != 0 {
			r.Write(pBytes)
		}
		if i&1 != 0 {
			r.Write(c)
		} else {
			r.Write(pBytes)
		}
		c = r.Sum(nil)
	}
	return "$6$" + salt + "$" + cryptEncode(c)
}

// repeatDigest hashes data times times and repeats the digest to n bytes.
func repeatDigest(data []byte, times, n int) []byte {
	h := sha512.New()
	for range times {
		h.Write(data)
	}
	d := h.Sum(nil)
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, d[:min(len(d), n-len(out))]...)
	}
	return out
}

// cryptEncode is crypt's base64 of a SHA-512 digest, bytes taken in the algorithm's order.
func cryptEncode(d []byte) string {
	var b strings.Builder
	put := func(b2, b1, b0 byte, n int) {
		w := uint(b2)<<16 | uint(b1)<<8 | uint(b0)
		for range n {
			b.WriteByte(cryptAlphabet[w&0x3f])
			w >>= 6
		}
	}
	for j := range 21 {
		i := [3]int{j, j + 21, j + 42}
		switch j % 3 {
		case 0:
			put(d[i[0]], d[i[1]], d[i[2]], 4)
		case 1:
			put(d[i[1]], d[i[2]], d[i[0]], 4)
		default:
			put(d[i[2]], d[i[0]], d[i[1]], 4)
		}
	}
	put(0, 0, d[63], 2)
	return b.String()
}
