/**
 * The core machinery behind the API: discovery, URI and option parsing, waiting, renewal, loss
 * detection and handles. Not exported; nothing here is API.
 */
package io.locksmith.internal;
