extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count); 0 when empty.
    /// Every benchmark reports medians, so one slow run on a busy machine moves no figure.
    var median: Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
