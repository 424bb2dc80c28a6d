/// An error a store raises when a constraint (unique, foreign key, check) refused a
/// change, recognised the same way whichever store raised it.
public protocol ConstraintViolationReporting: Error {
    var isConstraintViolation: Bool { get }
}
