#!/usr/bin/env bash
# make demo: the provider against the simulated fabric, end to end, on a machine with only Go.
# Builds the provider and the lab, starts the lab (openconfig, SONiC, NX-OS and Cumulus switches and one
# mlx5 NIC host), applies examples/quickstart (QoS policies on the switches, PFC on SONiC and
# NX-OS ports, NIC QoS and DCQCN on the host), changes two switches behind Terraform's back (a
# gNMI Set, and a line typed at the NX-OS CLI), shows that `terraform plan` detects the drift and
# that `terraform apply` repairs it, then reboots the host (which drops its mlnx_qos and sysfs
# settings) and shows that the provider's boot units (persist, the default) put them back before
# anything runs on the host, then destroys everything and stops the lab.
#
# Works in .demo/ (a copy of examples/quickstart, its state and the Terraform CLI config) and
# .lab/ (the lab's inventory and logs), both started afresh on every run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bin=$root/bin
lab_dir=$root/.lab
work=$root/.demo
tf_dir=$work/quickstart
device=openconfig-1
host=mlx5-1
nic_qos=roce_nic_qos.gpu1_eth0
dcqcn=roce_dcqcn_profile.gpu1_eth0
profile="/qos/queue-management-profiles/queue-management-profile[name=ROCE-roce]"
min_threshold="$profile/wred/uniform/config/min-threshold"
steps=$(grep -c '^step "' "$root/scripts/demo.sh") # the number of step calls below, counted so it cannot go stale
n=0

step() {
  n=$((n + 1))
  echo
  echo "==> $n/$steps $*"
}

# tf runs Terraform in the demo's copy of the quickstart, without colours or prompts. Terraform
# warns about dev_overrides on every run; the demo shows that warning on the first run only
# (drop_overrides_warning removes its box from the later ones), and keeps Terraform's exit status.
overrides_shown=
tf() {
  local cmd=$1
  shift
  if [ -z "$overrides_shown" ]; then
    overrides_shown=1
    "$terraform" -chdir="$tf_dir" "$cmd" -no-color -input=false "$@"
    return
  fi
  "$terraform" -chdir="$tf_dir" "$cmd" -no-color -input=false "$@" | drop_overrides_warning
  return "${PIPESTATUS[0]}"
}

# plan_exits runs terraform plan -detailed-exitcode and stops the demo unless it exits with want
# (0: no changes, 2: changes); expected says what that exit code means here.
plan_exits() {
  local want=$1 expected=$2 code=0
  tf plan -detailed-exitcode || code=$?
  if [ "$code" -ne "$want" ]; then
    echo "expected $expected (plan exit code $want), got exit code $code" >&2
    exit 1
  fi
}

# drop_overrides_warning copies its input without Terraform's dev_overrides warning: with
# -no-color, the line "Warning: Provider development overrides are in effect" through the line
# that ends its text ("... published releases.").
drop_overrides_warning() {
  awk '
    /^Warning: Provider development overrides are in effect$/ { skip = 1; next }
    skip { if ($0 ~ /releases\.$/) skip = 0; next }
    { print }
  '
}

step "Building the provider and the lab into bin/"
go build -o "$bin/terraform-provider-roce" .
go build -o "$bin/rocelab" ./internal/lab/cmd/rocelab
echo "built $bin/terraform-provider-roce and $bin/rocelab"

step "Finding Terraform 1.5.7 (installed with go install the first time, which takes a few minutes)"
terraform=$(scripts/tool.sh terraform)
echo "using $terraform"

step "Preparing .demo/: a copy of examples/quickstart and a Terraform CLI config using bin/"
# A lab left running by an earlier run (or by make lab) would hold .lab/: stop it first.
"$bin/rocelab" down --dir "$lab_dir"
rm -rf "$work" "$lab_dir"
mkdir -p "$work"
cp -R examples/quickstart "$tf_dir"
cat >"$work/terraformrc" <<EOF
# Written by scripts/demo.sh: use the provider just built instead of a registry download.
disable_checkpoint = true
provider_installation {
  dev_overrides {
    "rocefabric/roce" = "$bin"
  }
  direct {}
}
EOF
# Overrides the makefile's scripts/terraformrc for the demo's own runs.
export TF_CLI_CONFIG_FILE=$work/terraformrc
export CHECKPOINT_DISABLE=1
echo "Terraform config $TF_CLI_CONFIG_FILE; no terraform init needed with dev_overrides"

step "Starting the simulated fabric: switches $device, sonic-1, nxos-1 and cumulus-1, NIC host $host (bin/rocelab up --dir .lab)"
"$bin/rocelab" up --dir "$lab_dir" --switches openconfig=1,sonic=1,nxos=1,cumulus=1 --hosts mlx5=1 >"$work/rocelab.log" 2>&1 &
lab_pid=$!
# Whatever happens from here on, the lab is stopped on exit.
stop_lab() {
  local status=$?
  "$bin/rocelab" down --dir "$lab_dir" >/dev/null 2>&1 || kill "$lab_pid" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    echo
    echo "demo FAILED (exit $status); lab log: $work/rocelab.log" >&2
  fi
}
trap stop_lab EXIT
for _ in $(seq 600); do
  [ -f "$lab_dir/inventory.json" ] && break
  if ! kill -0 "$lab_pid" 2>/dev/null; then
    cat "$work/rocelab.log" >&2
    echo "the lab exited before it was ready" >&2
    exit 1
  fi
  sleep 0.1
done
if [ ! -f "$lab_dir/inventory.json" ]; then
  cat "$work/rocelab.log" >&2
  echo "the lab did not write $lab_dir/inventory.json within 60s" >&2
  exit 1
fi
cat "$work/rocelab.log"

step "terraform apply: RoCE QoS policies on $device, sonic-1, nxos-1 and cumulus-1 (lossless, with PFC), NIC QoS and DCQCN on $host"
tf apply -auto-approve

step "Reading sonic-1's CONFIG_DB with an independent gNMI client: a lossless RoCE class"
echo "\$ rocelab get --dir .lab sonic-1 '/CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet0'"
qos_map=$("$bin/rocelab" get --dir "$lab_dir" sonic-1 '/CONFIG_DB/localhost/PORT_QOS_MAP/Ethernet0')
echo "$qos_map"
echo "\$ rocelab get --dir .lab sonic-1 '/CONFIG_DB/localhost/DSCP_TO_TC_MAP/ROCE/26'"
dscp26=$("$bin/rocelab" get --dir "$lab_dir" sonic-1 '/CONFIG_DB/localhost/DSCP_TO_TC_MAP/ROCE/26')
echo "$dscp26"
if ! grep -q '"pfc_enable": "3"' <<<"$qos_map" || [ "$dscp26" != '"3"' ]; then
  echo "sonic-1 does not carry the lossless RoCE class (pfc_enable 3, DSCP 26 -> TC 3)" >&2
  exit 1
fi
echo "sonic-1: DSCP 26 -> traffic class 3 (the stock map said 1), PFC no-drop on priority 3"

step "Reading nxos-1's QoS configuration at its CLI (an SSH session of our own, as an operator would)"
echo "\$ rocelab cli --dir .lab nxos-1 'show running-config ipqos'"
ipqos=$("$bin/rocelab" cli --dir "$lab_dir" nxos-1 'show running-config ipqos')
echo "$ipqos"
if ! grep -q 'pause pfc-cos 3' <<<"$ipqos" || ! grep -q 'service-policy type network-qos ROCE-nq' <<<"$ipqos"; then
  echo "nxos-1 does not carry the lossless RoCE class (network-qos pause pfc-cos 3 under system qos)" >&2
  exit 1
fi
echo "nxos-1: network-qos ROCE-nq pauses CoS 3 (no-drop), bound under system qos"

step "Reading the switch with an independent gNMI client: the ECN profile the policy created"
echo "\$ rocelab get --dir .lab $device '$profile'"
"$bin/rocelab" get --dir "$lab_dir" "$device" "$profile"

step "Changing the switch out of band: an operator lowers the ECN min threshold to 100000 bytes by hand"
echo "\$ rocelab set --dir .lab $device '$min_threshold' '\"100000\"'"
"$bin/rocelab" set --dir "$lab_dir" "$device" "$min_threshold" '"100000"'

step "Reading cumulus-1's applied NVUE configuration, as NVIDIA's API guide does with curl"
# The switch's address and credentials, from the inventory rocelab wrote (no jq on a Go-only
# machine: the file is indented JSON, one field per line).
inv_field() { sed -n "/\"$1\": {/,/}/s/^ *\"$2\": \"\([^\"]*\)\".*/\1/p" "$lab_dir/inventory.json" | head -1; }
nvue_addr=$(inv_field cumulus-1 address)
nvue_auth="$(inv_field cumulus-1 username):$(inv_field cumulus-1 password)"
if command -v curl >/dev/null; then
  echo "\$ curl --cacert .lab/ca.pem -u USER:PASSWORD 'https://$nvue_addr/nvue_v1/qos/pfc?rev=applied'"
  pfc=$(curl -sS --cacert "$lab_dir/ca.pem" -u "$nvue_auth" "https://$nvue_addr/nvue_v1/qos/pfc?rev=applied")
  echo "$pfc"
  case "$pfc" in
    *'"ROCE"'*'"3"'*) echo "cumulus-1: PFC profile ROCE pauses switch priority 3" ;;
    *) echo "cumulus-1 does not carry the lossless RoCE class (qos pfc ROCE switch-priority 3)" >&2; exit 1 ;;
  esac
else
  echo "(curl is not installed: Terraform read cumulus-1 back in the apply above)"
fi

step "Changing nxos-1 out of band: an operator turns PFC off on Ethernet1/1 at the CLI"
echo "\$ rocelab cli --dir .lab nxos-1 'configure terminal' 'interface Ethernet1/1' 'priority-flow-control mode off' 'end'"
"$bin/rocelab" cli --dir "$lab_dir" nxos-1 'configure terminal' 'interface Ethernet1/1' 'priority-flow-control mode off' 'end'

step "terraform plan: does Terraform notice the change?"
plan_exits 2 "drift"
echo "drift detected: plan exit code 2"

step "terraform apply: repairing the drift on both switches"
tf apply -auto-approve
if ! "$bin/rocelab" cli --dir "$lab_dir" nxos-1 'show running-config interface Ethernet1/1' | grep -q 'priority-flow-control mode on'; then
  echo "apply did not turn PFC back on on nxos-1 Ethernet1/1" >&2
  exit 1
fi
echo "nxos-1 Ethernet1/1: priority-flow-control mode on again"
echo "\$ rocelab get --dir .lab $device '$min_threshold'"
"$bin/rocelab" get --dir "$lab_dir" "$device" "$min_threshold"

step "terraform plan: checking the switch matches the configuration again"
plan_exits 0 "no drift after the repair"
echo "no drift: plan exit code 0"

# rocelab has no command that runs something on a host (get and set speak gNMI to switches), and
# ssh would need an OpenSSH client (a Go-only machine may have none) fed the lab password: the
# host's settings are shown as Terraform read them back from the host in the apply above.
step "Reading $host's NIC settings as Terraform last read them (terraform state show)"
echo "\$ terraform state show $nic_qos"
"$terraform" -chdir="$tf_dir" state show -no-color "$nic_qos"
echo "\$ terraform state show $dcqcn"
"$terraform" -chdir="$tf_dir" state show -no-color "$dcqcn"

step "Rebooting the host: a reboot drops mlnx_qos and sysfs settings, and the boot units put them back"
# persist (the default) installed a systemd unit per resource on the host, run whenever the netdev
# appears: the lab host runs its enabled units at boot, as systemd does.
echo "\$ rocelab reboot --dir .lab $host"
"$bin/rocelab" reboot --dir "$lab_dir" "$host"

step "terraform plan: did the host come back with its RoCE settings?"
code=0
tf plan -detailed-exitcode | tee "$work/plan-after-reboot.txt" || code=$?
if [ "$code" -ne 0 ]; then
  echo "expected the boot units to restore $host after the reboot (plan exit code 0), got exit code $code" >&2
  exit 1
fi
echo "no drift after the reboot: plan exit code 0 ($nic_qos and $dcqcn persisted)"

step "terraform destroy: removing the policy from the switch, restoring the host's NIC settings from before create"
tf destroy -auto-approve
if "$bin/rocelab" get --dir "$lab_dir" "$device" "$profile" >/dev/null 2>&1; then
  echo "destroy left the ECN profile on the switch" >&2
  exit 1
fi
echo "the ECN profile is gone from $device"
if "$bin/rocelab" cli --dir "$lab_dir" nxos-1 'show running-config ipqos' | grep -q 'ROCE'; then
  echo "destroy left ROCE objects on nxos-1" >&2
  exit 1
fi
echo "no ROCE class-map or policy-map is left on nxos-1"
if command -v curl >/dev/null && curl -sS --cacert "$lab_dir/ca.pem" -u "$nvue_auth" "https://$nvue_addr/nvue_v1/qos?rev=applied" | grep -q '"ROCE"'; then
  echo "destroy left ROCE profiles on cumulus-1" >&2
  exit 1
fi
echo "no ROCE profile is left on cumulus-1"

step "Stopping the simulated fabric"
trap - EXIT
"$bin/rocelab" down --dir "$lab_dir"

echo
echo "Demo complete: a lossless RoCE class on SONiC, NX-OS and Cumulus; out-of-band switch changes (gNMI and"
echo "CLI), each detected by plan and repaired by apply; a host reboot survived by persisted settings;"
echo "destroyed."
echo "Try it yourself: start the fabric in .lab/ with"
echo "  make lab"
echo "then, in another shell,"
echo "  TF_CLI_CONFIG_FILE=\$PWD/.demo/terraformrc $terraform -chdir=examples/quickstart apply"
