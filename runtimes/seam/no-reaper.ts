// testcontainers starts a reaper container (pulled from a registry) unless this variable is "true" when its
// first container starts. concord removes its containers itself and never pulls, so the reaper stays off.
// Set as the modules that start containers load, so no start can come before it.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

export {};
