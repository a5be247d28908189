package io.tas.store;

import io.tas.support.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdGeneratorTest {
    @Test
    void idsAreStrictlyIncreasingEvenWhenTheClockStandsStillOrStepsBack() {
        MutableClock clock = new MutableClock(1_800_000_000_000L);
        IdGenerator ids = new IdGenerator(clock, 3);
        long last = 0;
        for (int i = 0; i < 10_000; i++) { // more than one millisecond's 4096 sequence numbers
            long id = ids.next();
            assertThat(id).isGreaterThan(last);
            last = id;
        }
        clock.advance(Duration.ofSeconds(-5));
        assertThat(ids.next()).isGreaterThan(last);
    }

    @Test
    void idsAreTimeOrdered() {
        MutableClock clock = new MutableClock(1_800_000_000_000L);
        IdGenerator ids = new IdGenerator(clock, 0);
        long a = ids.next();
        clock.advance(Duration.ofMillis(1));
        long b = ids.next();
        assertThat(b >>> 22).isEqualTo((a >>> 22) + 1);
    }

    @Test
    void everyIdCarriesItsNodeIdSoTwoNodesOnOneClockNeverCollide() {
        MutableClock clock = new MutableClock(1_800_000_000_000L);
        IdGenerator one = new IdGenerator(clock, 1), two = new IdGenerator(clock, 1023), oneAgain = new IdGenerator(clock, 1);
        long first = one.next();
        assertThat(oneAgain.next()).as("one node id on one clock repeats IDs: why node ids are leased").isEqualTo(first);
        for (int i = 0; i < 10_000; i++) {
            long a = one.next(), b = two.next();
            assertThat(IdGenerator.nodeOf(a)).isEqualTo(1);
            assertThat(IdGenerator.nodeOf(b)).isEqualTo(1023);
            assertThat(a).isNotEqualTo(b);
        }
        assertThatThrownBy(() -> new IdGenerator(clock, 1024)).isInstanceOf(IllegalArgumentException.class);
    }
}
