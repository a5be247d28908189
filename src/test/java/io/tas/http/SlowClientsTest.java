package io.tas.http;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D129: the read-timeout sweeper's check ("this connection's clock runs and is late") and its act (the interrupt) are
 * one step. The test holds the sweeper between the two while the connection's thread finishes reading its request;
 * the request then goes on uninterrupted. Before D129 the finished request's thread was interrupted in its handler.
 */
class SlowClientsTest {
    private static final long WAIT_S = 10;

    @Test
    void aRequestThatFinishedReadingIsNeverCutOffBySweeperLateToAct() throws Exception {
        CountDownLatch checked = new CountDownLatch(1);
        CountDownLatch act = new CountDownLatch(1);
        // Every running clock is late at once; the test runs the sweep itself.
        SlowClients slow = new SlowClients(Duration.ofNanos(1), false, () -> {
            checked.countDown();
            await(act);
        });
        CountDownLatch lineRead = new CountDownLatch(1);
        CountDownLatch finishReading = new CountDownLatch(1);
        CountDownLatch handle = new CountDownLatch(1);
        AtomicBoolean bodyReadReturned = new AtomicBoolean();
        AtomicReference<Boolean> interruptedInHandler = new AtomicReference<>();
        Thread connection = Thread.ofPlatform().name("connection").start(() -> {
            slow.requestLineRead();
            lineRead.countDown();
            await(finishReading);
            SlowClients.bodyRead(); // the request is whole
            bodyReadReturned.set(true);
            await(handle);
            interruptedInHandler.set(Thread.currentThread().isInterrupted()); // a handler's next wait would throw
        });
        try {
            assertThat(lineRead.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            Thread sweeper = Thread.ofPlatform().name("sweeper").start(slow::sweep);
            assertThat(checked.await(WAIT_S, TimeUnit.SECONDS)).as("the sweeper found the clock late").isTrue();

            // The read ends while the sweeper is between its check and its act: the stop either waits for the
            // sweeper (D129) or returns at once (before it).
            finishReading.countDown();
            while (!bodyReadReturned.get() && connection.getState() != Thread.State.BLOCKED) Thread.onSpinWait();
            act.countDown();
            sweeper.join(TimeUnit.SECONDS.toMillis(WAIT_S));
            handle.countDown();
            connection.join(TimeUnit.SECONDS.toMillis(WAIT_S));

            assertThat(interruptedInHandler.get()).as("the finished request's thread was interrupted").isFalse();
            assertThat(slow.closedConnections()).as("connections counted as cut").isZero();
        } finally {
            act.countDown();
            handle.countDown();
            finishReading.countDown();
            slow.close();
        }
    }

    /** A clock still running when the sweeper acts is a request not read in time: its thread is interrupted and counted. */
    @Test
    void aRequestStillReadingIsCutOff() throws Exception {
        SlowClients slow = new SlowClients(Duration.ofNanos(1), false, () -> {});
        CountDownLatch lineRead = new CountDownLatch(1);
        CountDownLatch cut = new CountDownLatch(1);
        Thread connection = Thread.ofPlatform().name("connection").start(() -> {
            slow.requestLineRead();
            lineRead.countDown();
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(WAIT_S)); // stands for a read blocked on a slow client
            } catch (InterruptedException e) {
                cut.countDown();
            }
        });
        try {
            assertThat(lineRead.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            slow.sweep();
            assertThat(cut.await(WAIT_S, TimeUnit.SECONDS)).as("the blocked read was interrupted").isTrue();
            assertThat(slow.closedConnections()).isEqualTo(1);
        } finally {
            connection.interrupt();
            slow.close();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_S, TimeUnit.SECONDS)) throw new AssertionError("not released within " + WAIT_S + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // kept: the test reads it
        }
    }
}
