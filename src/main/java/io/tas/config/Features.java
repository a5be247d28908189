package io.tas.config;

import io.tas.accountswitch.SwitchConfig;
import io.tas.convert.ConvertConfig;
import io.tas.http.SlowClients;
import io.tas.jobs.JobsConfig;
import io.tas.ops.Health;
import io.tas.reality.RealityPriceFeed;
import io.tas.store.ChangeFeed;

import java.math.BigDecimal;

/** The settings of single features, read with all the others in Config.fromEnv (issue 24 item 9). */
public record Features(JobsConfig jobs, SwitchConfig accountSwitch, ConvertConfig convert, BigDecimal deltaPositionThreshold,
                       RealityPriceFeed.Settings priceFeed, Health.Settings health,
                       SlowClients.Settings slowClients, ChangeFeed.Settings changeFeed, String logFormat,
                       Boolean journal, int journalEntries, int h2CompactGrowthMb) {
    /** Issue 28: TAS_JOURNAL is off in serve unless set; the demo turns it on (D191). */
    public Features withJournal(boolean on) {
        return new Features(jobs, accountSwitch, convert, deltaPositionThreshold, priceFeed, health, slowClients,
                changeFeed, logFormat, on, journalEntries, h2CompactGrowthMb);
    }

    /** D204: how far an embedded H2 file grows past its last compaction before a restore or reset rewrites it. */
    public Features withH2CompactGrowthMb(int mb) {
        return new Features(jobs, accountSwitch, convert, deltaPositionThreshold, priceFeed, health, slowClients,
                changeFeed, logFormat, journal, journalEntries, mb);
    }
}
