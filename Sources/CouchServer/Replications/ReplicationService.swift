import Logging
import ServiceLifecycle

/// Runs the server's background replications as child tasks of one task group: the
/// `_replicator` watcher, and every continuous or `_replicator` job the scheduler launches.
/// When the server stops, the group is cancelled, every job stops at its next step with its
/// checkpoint kept, and `run` returns once they all have.
struct ReplicationService: Service {
    let scheduler: ReplicationScheduler
    let context: ReplicationJob.Context

    func run() async throws {
        let scheduler = self.scheduler
        let context = self.context
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await ReplicatorDatabaseWatcher(registry: context.registry, scheduler: scheduler, logger: context.logger).run()
                }
                for await job in scheduler.launches {
                    group.addTask {
                        _ = try? await job.run(context, retrying: true)
                        scheduler.removeRequested(job)
                        if job.documentID != nil {
                            await ReplicatorDocumentState.recordEnd(of: job, scheduler: scheduler, context: context)
                        }
                    }
                }
                group.cancelAll()
            }
        }
        // Jobs a request registers from now on are not run.
        scheduler.finish()
    }
}
