package lab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rocefabric/terraform-provider-roce/internal/lab/internal/device"
)

// Inventory is the contract's inventory.json: `devices` is shaped so that
// `jsondecode(file(...)).devices` is a valid provider `devices` map.
type Inventory struct {
	Devices    map[string]DeviceEntry `json:"devices"`
	Interfaces map[string][]string    `json:"interfaces"`
	// Links are the lab's cables, in roce_fabric_check's `links` shape.
	Links []Cable `json:"links"`
}

// DeviceEntry is one device as the provider configuration names it.
type DeviceEntry = device.Entry

const (
	// InventoryFile and CAFile are the names Start writes into Options.Dir.
	InventoryFile = "inventory.json"
	CAFile        = "ca.pem"
)

// writeFiles writes the CA first and the inventory last, each through a
// rename, so whoever polls for inventory.json (rocelab's callers, make demo)
// never reads a partial file nor finds an inventory whose CA is missing.
func writeFiles(dir string, inv Inventory, caPEM []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("lab dir: %w", err)
	}
	body, err := json.MarshalIndent(inv, "", "  ")
	if err != nil {
		return fmt.Errorf("inventory: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, CAFile), caPEM, 0o644); err != nil {
		return err
	}
	// 0600: the inventory holds the device passwords.
	return writeFileAtomic(filepath.Join(dir, InventoryFile), append(body, '\n'), 0o600)
}

func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
