package io.oneway.replication;

import io.oneway.testing.Transport;

/** The lossy-link scenario over files, a folder per direction, written atomically and read in name order; frames as plain JSON. */
class FileTransportIT extends LossyLinkScenario {

    FileTransportIT() {
        super(Transport.FILES, "none");
    }
}
