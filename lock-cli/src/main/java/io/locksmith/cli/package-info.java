/** The {@code locksmith} command: the demo, a distributed flock, lock status, benchmarks and the kit. */
package io.locksmith.cli;
