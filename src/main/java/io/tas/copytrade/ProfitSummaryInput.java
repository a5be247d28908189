package io.tas.copytrade;

import java.math.BigDecimal;

/** A profit summary as an operator hands it in (admin API, CLI, seed); uid only for the admin API. */
public record ProfitSummaryInput(Long uid, BigDecimal totalProfit, BigDecimal totalAllocatedProfit, BigDecimal totalPendingProfit) {}
