package io.tas.convert;

import java.math.BigDecimal;
import java.util.Map;

/** §2.9 small-asset conversion settings: the target token, the fee rate and the "small" threshold in USDT. */
public record ConvertConfig(String platformToken, BigDecimal feeRate, BigDecimal thresholdUsdt) {
    public static ConvertConfig fromEnv(Map<String, String> env) {
        return new ConvertConfig(env.getOrDefault("TAS_PLATFORM_TOKEN", "BGB"),
                new BigDecimal(env.getOrDefault("TAS_CONVERT_FEE_RATE", "0.02")),
                new BigDecimal(env.getOrDefault("TAS_SMALL_ASSET_USDT", "5")));
    }
}
