import Catalog
import Images

extension PhotoCatalog {
    /// The clockwise turn that makes photo `photo` (an index in `photos`) upright, as
    /// accepted rotation corrections say: the one place the image routes learn it, so
    /// the kept copy, its bytes and its tag follow the turn. The shipped catalog holds
    /// no correction; corrections are laid over it by the catalog generations
    /// (`CatalogCorrection`), and a generation answers here with the last accepted one.
    public func acceptedTurn(ofPhoto photo: Int) -> ImageTurn {
        .none
    }
}
