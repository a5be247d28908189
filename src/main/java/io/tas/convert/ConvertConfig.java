package io.tas.convert;

import java.math.BigDecimal;

/** §2.9 small-asset conversion settings: the target token, the fee rate and the "small" threshold in USDT. */
public record ConvertConfig(String platformToken, BigDecimal feeRate, BigDecimal thresholdUsdt) {
    /** TAS_PLATFORM_TOKEN, TAS_CONVERT_FEE_RATE and TAS_SMALL_ASSET_USDT unset (read in Config.fromEnv). */
    public static final ConvertConfig DEFAULTS = new ConvertConfig("BGB", new BigDecimal("0.02"), new BigDecimal("5"));
}
