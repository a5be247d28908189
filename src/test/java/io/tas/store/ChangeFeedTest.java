package io.tas.store;

import io.tas.config.Config;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Two nodes on one PostgreSQL: a change committed on one reaches the other; a rolled-back one does not. */
class ChangeFeedTest {
    @Test
    void committedChangesReachOtherNodesAndRolledBackOnesDoNot() throws Exception {
        try (Databases.TestDb pg = Databases.create(Databases.Kind.POSTGRES)) {
            Config config = Config.fromEnv(Map.of()).withDb(pg.url(), pg.user(), "");
            try (Database a = Database.open(config); Database b = Database.open(config);
                 ChangeFeed nodeA = ChangeFeed.open(a, pg.url(), pg.user(), "");
                 ChangeFeed nodeB = ChangeFeed.open(b, pg.url(), pg.user(), "")) {
                BlockingQueue<String> seenByB = new LinkedBlockingQueue<>();
                nodeB.subscribe(seenByB::add);
                assertThat(seenByB.poll(10, TimeUnit.SECONDS)).as("listening starts with a full drop").isEqualTo(ChangeFeed.EVERYTHING);

                try {
                    a.tx(dsl -> {
                        nodeA.publish("account:7");
                        throw new IllegalStateException("roll back");
                    });
                } catch (IllegalStateException expected) {
                    // the NOTIFY is discarded with the transaction
                }
                a.tx(dsl -> { nodeA.publish("account:8"); return null; });
                assertThat(seenByB.poll(10, TimeUnit.SECONDS)).isEqualTo("account:8");
                assertThat(seenByB.poll(1, TimeUnit.SECONDS)).isNull();
            }
        }
    }

    @Test
    void onH2PublishingIsANoOp() {
        Config config = Config.fromEnv(Map.of()).withDb("jdbc:h2:mem:feed;DB_CLOSE_DELAY=-1", "sa", "");
        try (Database h2 = Database.open(config); ChangeFeed feed = ChangeFeed.open(h2, config.dbUrl(), "sa", "")) {
            assertThat(feed.sharedAcrossNodes()).isFalse();
            h2.tx(dsl -> { feed.publish("account:1"); return null; });
        }
    }
}
