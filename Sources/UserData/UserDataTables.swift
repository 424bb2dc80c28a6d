/// The tables holding what a user made with their account, each with a `user_id`
/// column: the "reset" (`DELETE /users/me/data`, `Accounts.eraseUserData`) deletes
/// the user's rows of every one of them in one transaction, and keeps the account,
/// its profile and its tokens. A new kind of user data adds its table here.
/// (Deleting the account removes these rows too, by `ON DELETE CASCADE`; a walk's
/// points, entries and removed photos go with it the same way.)
public enum UserDataTables {
    public static let names = ["favorites", "recents", "walks"]
}
