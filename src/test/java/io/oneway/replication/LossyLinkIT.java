package io.oneway.replication;

import io.oneway.testing.Transport;

/** The lossy-link scenario over Artemis core JMS, the default. */
class LossyLinkIT extends LossyLinkScenario {

    LossyLinkIT() {
        super(Transport.JMS, "lz4");
    }
}
