// testcontainers starts a reaper container (pulled from a registry) unless this variable is "true" when its
// first container starts. concord removes its containers itself and never pulls, so the reaper stays off.
// Set at import, not just before a start: @cordisjs/loader resets the environment to what it was when the
// loader was imported every time an app boots, so a value set later is gone by the next container start.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

export {};
