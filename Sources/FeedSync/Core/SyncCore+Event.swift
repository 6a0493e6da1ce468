import Foundation

extension SyncCore {
    /// What happens to a core: the start of a sync, then the answers to its effects.
    public enum Event: Sendable {
        /// Sync the account the store describes, at `now` (the time subscription-list ages are
        /// judged by; nothing else reads a clock).
        case start(SyncSnapshot, now: Date)
        /// The answer to ``Effect/askPassword``.
        case password(SyncSecret)
        /// The answer to ``Effect/askPassword`` when there is none to give.
        case passwordUnavailable(reason: String)
        /// The server's reply to ``Effect/send(_:)``, whatever its status.
        case replied(SyncReply)
        /// The request of ``Effect/send(_:)`` got no reply: no connection, a timeout, a body over
        /// the size limit. The reason must hold no secret.
        case requestFailed(reason: String)
        /// The answer to ``Effect/findUnstored(_:)``: those of its ids the store has no entry for.
        case unstored([RemoteItemID])
        /// The answer to ``Effect/proceedWhileWaiting``, given before the reply to the request
        /// under way.
        case proceed
    }

    /// What a core asks its runtime to do, in order. Each effect that asks a question is the
    /// last of its batch, and the runtime answers it with one event; but a ``send(_:)`` may be
    /// followed by ``proceedWhileWaiting``, answered first, and then the send.
    public enum Effect: Sendable, Hashable {
        /// Get the user's password (a prompt, a password command); answer
        /// ``Event/password(_:)`` or ``Event/passwordUnavailable(reason:)``.
        case askPassword
        /// Send the request to the account's base URL; answer ``Event/replied(_:)`` or
        /// ``Event/requestFailed(reason:)``.
        case send(SyncRequest)
        /// Comes last, after a ``send(_:)``: answer ``Event/proceed`` at once, while the request
        /// is under way (the core decodes the page before it meanwhile), then answer the send.
        case proceedWhileWaiting
        /// Look up which of these ids the store has no entry for; answer ``Event/unstored(_:)``.
        case findUnstored([RemoteItemID])
        /// Change the store; nothing to answer.
        case apply(SyncStoreChange)
        /// The sync is at this step, with these counts so far; nothing to answer.
        case progress(SyncStep, SyncSummary)
        /// The sync is done; the core takes no more events.
        case finished(SyncSummary)
        /// The sync ended early; what was applied stays applied, and the queue keeps every
        /// change not dequeued. The core takes no more events.
        case failed(SyncFailure, SyncSummary)
    }
}
