import Catalog
import Images

extension PhotoCatalog {
    /// The clockwise turn that makes photo `photo` (an index in `photos`) upright, as the
    /// accepted rotation corrections of this generation say (none for the shipped
    /// catalog): the one place the image routes learn it, so the kept copy, its bytes and
    /// its tag follow the turn.
    public func acceptedTurn(ofPhoto photo: Int) -> ImageTurn {
        // A generation holds only the four turns (`PhotoCorrections` leaves out any other).
        ImageTurn(degrees: photos[photo].acceptedRotation) ?? .none
    }
}
