package io.oneway.replication;

import io.oneway.testing.Transport;

/** The lossy-link scenario over AMQP 1.0 (Qpid JMS against the broker's AMQP acceptor); frames deflated (zlib). */
class AmqpTransportIT extends LossyLinkScenario {

    AmqpTransportIT() {
        super(Transport.AMQP, "deflate");
    }
}
