package io.tas.admin;

/**
 * The control plane of one node (moto's and LocalStack's control plane): provisioning of accounts, keys and tickers,
 * the money core, record feeds, seeds and the sandbox controls; reads: what the console shows besides (D200). App.start
 * builds it over the domain services; the admin routes, the CLI's start-up seeding and tests use it.
 */
public record AdminSurface(Provisioning provisioning, MoneyAdmin money, RecordsAdmin records, SeedApplier seeds, SandboxControls sandbox,
                           io.tas.stream.StreamHub streams, io.tas.admin.console.ConsoleReads reads) {}
