package io.tas.reality;

/**
 * Simulated execution of Reality orders (issue 10): on, orders fill against the tickers; off, they rest (frozen) until
 * cancelled. TAS_SIMULATED_EXECUTION=on|off (also true|false); unset, it follows the sandbox flag (on in `./tas demo`,
 * off in a plain `./tas serve`). Any other value refuses the start (Config.Invalid: one clear line, no stack trace).
 */
public record RealityConfig(boolean simulatedExecution) {}
