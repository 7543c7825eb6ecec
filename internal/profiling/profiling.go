// Package profiling writes CPU and heap profiles of a provider process for make bench, in
// builds with the roceprofile tag only: a shipped provider has none of it. Terraform starts several
// provider processes per command and ends them itself, so each process writes its own files,
// named by its pid, into the directory ROCE_PPROF_DIR names, and keeps its heap profile
// current at its largest in-use heap (the moment the peak RSS the bench reports is reached)
// rather than relying on an exit hook the process may not get to run.
package profiling

// Start starts profiling when the build and the environment ask for it, and returns what
// stops it (write the CPU profile); without the tag both do nothing.
func Start() (stop func()) { return start() }
