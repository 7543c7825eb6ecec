package lab

import "github.com/rocefabric/terraform-provider-roce/internal/lab/internal/mlx5"

// Host is an `mlx5` NIC host: an SSH server whose commands run in an emulated Linux userland
// with MLNX_OFED's tools for N ConnectX ports (room mlx5).
type Host = mlx5.Host

// HostCounters are the exec requests and TCP connections a host received.
type HostCounters = mlx5.HostCounters

// HostUsername is the login of every lab NIC host: an ordinary user whose privileged reads and
// writes go through `sudo -n`, as the provider's `sudo` device setting expects.
const HostUsername = mlx5.HostUsername

// The models of an mlx5 host: its software, not its NIC.
const (
	// MLX5OFED is a host with NVIDIA's MLNX_OFED (DOCA-OFED) driver stack.
	MLX5OFED = mlx5.OFED
	// MLX5Inbox is a host with the distribution's (upstream) mlx5 driver.
	MLX5Inbox = mlx5.Inbox
)

// DefaultNICPorts is the number of netdevs per host when Options.NICPorts is 0: one dual-port
// ConnectX adapter.
const DefaultNICPorts = mlx5.DefaultNICPorts

var startMLX5Host = mlx5.Start
